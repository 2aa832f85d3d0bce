"""Neurons core: everything that is not Qt."""

__version__ = "0.1.0"
