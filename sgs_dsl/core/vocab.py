"""The closed vocabularies that text names and the engine interprets: the checker refuses any
other word, the engine acts on each."""

from __future__ import annotations

# how long a remembered value or an effect lasts (`until:`)
SCOPES = ("phase", "turn", "round", "game")
# periods a history query reads (`history(p, discarded, phase)`)
PERIODS = ("phase", "turn", "round")
# what a history query asks about a player's cards, and about damage
HISTORY_CARDS = ("used", "played", "discarded", "gained", "lost")
DAMAGE_KINDS = ("dealt", "taken")
# where `move` may put cards, and why they moved (with the Chinese verb of the log)
PLACES = ("hand", "equip", "judge", "pile", "deck_top", "deck_bottom", "discard")
REASONS = {"use": "使用", "play": "打出", "discard": "棄置", "give": "交給", "gain": "獲得", "put": "置入",
           "recast": "重鑄", "judge": "判定"}
# where cards entering the discard pile came from (`discarded.origin`)
ORIGINS = {"hand": "手牌", "equip": "裝備區", "judge": "判定區", "processing": "處理區", "deck": "牌堆",
           "pile": "武將牌上"}
PILE = "pile:"  # the zone `pile:權` is the pile 權 on its owner's hero card
