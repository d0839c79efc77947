"""Fuzz tests: every parser and consumer of the project driven with generated input over its real
transport, for a bounded, deterministic number of examples (support.py says how, and which
environment variables run a longer hunt by hand)."""
