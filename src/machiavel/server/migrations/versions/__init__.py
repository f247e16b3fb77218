"""The migrations of the server's database, one file a revision (r<number>_<slug>.py)."""
