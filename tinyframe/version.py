"""``torch.version``: the version string and the toolkit versions scripts check (``torch.version.cuda`` is
None for a build without CUDA, which is what code that picks a device from it should see)."""
__version__ = "0.1.0"
cuda = None
hip = None
git_version = "unknown"
debug = False
