"""The head dimensions of every DeltaNet layer of the circuit (the config is uniform), and what
they bound. Kept apart from ``gpu.py`` so the CLI can state the limits without importing torch."""

DK = 128  # state rows per head: enough for the 126 memory words
DV = 64   # value columns per head: two ROM fields as bit pairs, or two bytes as nibble one-hots
HEADS_PER_KEY = 8  # value heads per key head (a ROM slot uses all 8)
MAX_ROM_BLOCKS = DV - 3
"""The most ROM blocks the circuit holds: a lane's pc entry is one value head with a column per
block, one for exit and a serial / not-serial pair (``writeback.WritebackBuilder._pc_file``)."""
