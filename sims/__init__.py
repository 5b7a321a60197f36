"""slicelab's simulation package: rules engines, strategies and the batch runner."""

__version__ = "0.1.0"
