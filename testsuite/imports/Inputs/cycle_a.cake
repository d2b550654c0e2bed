# One half of an import cycle.
import cycle_b
A = 1
