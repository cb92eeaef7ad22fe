"""Built-in games: importing this package registers them all."""

from . import dix  # noqa: F401
from . import dix_exchange  # noqa: F401
from . import dixie_rook  # noqa: F401
from . import tricks  # noqa: F401
from . import trix  # noqa: F401
