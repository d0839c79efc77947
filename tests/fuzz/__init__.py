"""Fuzz tests: every parser and consumer of the project driven with generated input over its real
transport, for a bounded, deterministic number of examples (support.py says how, and which
environment variables run a longer hunt by hand).

The machinery is shared from here (support.py, strategies.py, sockets.py, worlds.py). The REST
API's and the lobby WebSockets' generated inputs are part of those transports' bad-input suites,
tests/api/test_bad_input.py and tests/transport/test_bad_input_ws.py; here are the CRIBBAGEBBER
codec and links, rule options over both, and the check that every accepted field is generated."""
