"""Response bodies: how each resource looks at each microversion."""
