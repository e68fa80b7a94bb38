"""Building a big tree of objects that mostly stay alive (a parse, a library compiled from
one) with Python's cyclic collector off: it would only scan the new objects again and
again, a third or more of the time a big file takes, and find next to nothing to free."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def no_gc() -> Iterator[None]:
    """The collector off inside, as it was after (a nested use leaves it off)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
