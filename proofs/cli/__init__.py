"""The ``dpcert`` command line (entry point :func:`main`)."""

from dpcert.proofs.cli.app import cli, main

__all__ = ["cli", "main"]
