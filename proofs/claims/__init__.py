"""The tables of registered claims, one module per subject or paper."""
