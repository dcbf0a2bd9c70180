"""MNIST digit classification example: ``python -m tinyframe.examples.mnist``."""
