"""PowerPortal: customer platform for smart power distribution equipment."""

__version__ = "0.1.0"
