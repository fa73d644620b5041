"""The image interface and the implementation it chooses."""

from nova.image import api, glance


def test_glance_has_every_method_of_the_image_api():
    assert isinstance(glance.GlanceImageAPI(), api.ImageAPI)


def test_get_image_api_chooses_glance():
    assert isinstance(api.get_image_api(), glance.GlanceImageAPI)
