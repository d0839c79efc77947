"""Maintenance scripts run by hand (not by the server): tools/build_cjk_font.py."""
