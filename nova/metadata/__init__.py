"""What an instance is told about itself: the OpenStack and EC2 metadata
trees, built once here and served two ways (the metadata API over HTTP,
the config drive on the guest's cdrom)."""
