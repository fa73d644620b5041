"""The metadata API: what an instance learns about itself on 169.254.169.254."""
