from django.apps import AppConfig


class WordcloudsConfig(AppConfig):
    name = "wordclouds"
    verbose_name = "Word clouds"
