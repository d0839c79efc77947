"""Deployment: HAProxy in front of several ``manage.py serve`` processes (docs/deployment.md)."""
