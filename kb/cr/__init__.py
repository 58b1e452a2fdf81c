"""The Comprehensive Rules across versions (being split into modules; see query.py)."""

from kb.cr.query import *  # noqa: F401,F403
