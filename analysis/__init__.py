"""slicelab's analysis package: balance questions answered from simulated data."""
