# A module of constants for the import tests.
TILE = 64
SHAPE = (TILE, 2 * TILE)
NAME = "pkg"
