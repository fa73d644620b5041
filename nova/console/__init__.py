"""Console proxies: browser WebSockets to the instances' consoles."""
