# The other half: importing cycle_a again closes the cycle.
import cycle_a  # expected-error {{import cycle: 'cycle_a' imports 'cycle_b' imports 'cycle_a'}}
B = 2
