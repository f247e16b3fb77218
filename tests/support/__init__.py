"""Helpers shared by test modules (on the path through pytest's ``pythonpath``)."""
