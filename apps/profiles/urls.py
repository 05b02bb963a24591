from django.urls import path

from . import views

app_name = "profiles"

urlpatterns = [
    path("", views.profile_list, name="list"),
    path("new/", views.profile_create, name="create"),
    path("panel/", views.profile_panel, name="panel"),
    path("sizing/", views.sizing, name="sizing"),
    path("<int:pk>/", views.profile_detail, name="detail"),
    path("<int:pk>/edit/", views.profile_edit, name="edit"),
    path("<int:pk>/delete/", views.profile_delete, name="delete"),
    path("<int:pk>/fill-preprocess/", views.profile_fill_preprocess, name="fill_preprocess"),
]
