"""What the served peers bound on purpose, where the SDK's agent does not (options of ``serve a2a``)."""

#: A body over this many bytes is refused (413) before it is read whole: 10 MiB, ample for a
#: message of text and a few files inline, far under what would strain the process.
DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024
#: The task store keeps this many tasks, the newest; a test suite's worth, and bounded.
DEFAULT_MAX_TASKS = 1000
