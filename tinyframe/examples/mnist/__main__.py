"""``python -m tinyframe.examples.mnist``: see ``train.py``."""
from .train import main

raise SystemExit(main())
