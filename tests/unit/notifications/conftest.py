# Before anything imports oslo.messaging: nova.conf makes oslo.service
# settle on native threads, as every nova process does.
import nova.conf  # noqa: F401
from tests.fixtures.notification_samples import sent  # noqa: F401  (fixture)
