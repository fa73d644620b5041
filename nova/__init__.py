"""Nova: a compute controller implementing the OpenStack Nova architecture."""

import warnings

# futurist and oslo.service import eventlet when it is installed, and eventlet
# warns on import that it is deprecated. Nova never runs on eventlet (native
# threads only), so the warning would be noise before every command's output.
warnings.filterwarnings("ignore", message=r"\s*Eventlet is deprecated")
