"""MORANA: three Sites, sealed simultaneous Commit, Dusk left to right, Slava to 13 (rules/morana-rules-numbered)."""
