"""The bottom layer: the data both the compiler and the engine use, and nothing else. The game
model (cards, players, uses, damage), the compiled definitions the engine runs (card kinds,
skills, triggers), the window table, and the closed vocabularies text may name. It imports
nothing of the layers above it."""
