"""Search bots: information-set Monte Carlo tree search over worlds consistent with one seat's view (issue 32)."""
