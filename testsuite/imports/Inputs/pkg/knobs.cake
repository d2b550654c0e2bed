# Constants of several kinds for the cake.instantiate tests: an imported
# one and a tuple assignment cannot be replaced; a number stays a number.
from pkg.consts import TILE
SCALE = 0.5
A, B = 1, 2
ROWS = 8
