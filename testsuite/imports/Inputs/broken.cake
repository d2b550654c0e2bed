# A module with a syntax error: reported at its own file and line.
X = (1 +
# expected-error@2 {{'(' was never closed}}
