"""Cribbage: a pure-Python engine (``engine``) and the platform glue around it."""
