from django.urls import path

from . import views

app_name = "catalog"

urlpatterns = [
    path("", views.index, name="index"),
    path("sites/", views.site_list, name="site_list"),
    path("sites/new/", views.site_create, name="site_create"),
    path("sites/<int:pk>/edit/", views.site_edit, name="site_edit"),
    path("sites/<int:pk>/delete/", views.site_delete, name="site_delete"),
    path("sites/<int:pk>/row/", views.site_row, name="site_row"),
    path("links/", views.link_list, name="link_list"),
    path("links/new/", views.link_create, name="link_create"),
    path("links/<int:pk>/edit/", views.link_edit, name="link_edit"),
    path("links/<int:pk>/delete/", views.link_delete, name="link_delete"),
    path("links/<int:pk>/row/", views.link_row, name="link_row"),
    path("offers/", views.offer_list, name="offer_list"),
    path("offers/new/", views.offer_create, name="offer_create"),
    path("offers/<int:pk>/", views.offer_detail, name="offer_detail"),
    path("offers/<int:pk>/edit/", views.offer_edit, name="offer_edit"),
    path("offers/<int:pk>/delete/", views.offer_delete, name="offer_delete"),
    path("offers/<int:pk>/row/", views.offer_row, name="offer_row"),
]
