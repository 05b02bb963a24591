"""The choices of a task profile's fields (SPEC 2, 6.1, 7.1)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Workload(models.TextChoices):
    TRAINING = "training", _("Training")
    # SPEC 6.1: "fine_tuning" is full fine-tuning (sized like training); LoRA/QLoRA is
    # "adapter_tuning" (v1's "fine_tuning": migration 0003 renamed the stored ones).
    FINE_TUNING = "fine_tuning", _("Full fine-tuning")
    ADAPTER_TUNING = "adapter_tuning", _("Adapter tuning (LoRA/QLoRA)")
    INFERENCE = "inference", _("Inference")
    BATCH_INFERENCE = "batch_inference", _("Batch inference")
    DATA_PROCESSING = "data_processing", _("Data processing")
    RENDERING = "rendering", _("Rendering")
    SCIENTIFIC_BATCH = "scientific_batch", _("Scientific batch")
    ONLINE_SERVICE = "online_service", _("Online service")


class Cadence(models.TextChoices):
    ONE_OFF = "one_off", _("One-off")
    RECURRING = "recurring", _("Recurring")


class Precision(models.TextChoices):
    FP32 = "fp32", "fp32"
    BF16 = "bf16", "bf16"
    FP16 = "fp16", "fp16"
    FP8 = "fp8", "fp8"
    INT8 = "int8", "int8"
    INT4 = "int4", "int4"


class Coupling(models.TextChoices):
    NONE = "none", _("None (independent pieces)")
    LOOSE = "loose", _("Loose (data parallel, moderate gradient traffic)")
    TIGHT = "tight", _("Tight (tensor parallel, high-frequency exchange)")


class AccessPattern(models.TextChoices):
    STREAMING = "streaming", _("Streaming (read once)")
    REPEATED_FULL_SCAN = "repeated_full_scan", _("Repeated full scan")


class Pain(models.TextChoices):
    NONE = "none", _("None")
    SLOW = "slow", _("Too slow")
    QUEUEING = "queueing", _("Queueing for resources")


class Attention(models.TextChoices):
    # SPEC 7.1 [Dao et al. 2022]: FlashAttention and PyTorch SDPA never store the score matrix.
    FLASH = "flash", _("Flash (FlashAttention, SDPA)")
    EAGER = "eager", _("Eager (stores the attention scores)")


class InputDelivery(models.TextChoices):
    # SPEC 7.5: copied before compute starts, or read over the link while the job computes.
    BULK = "bulk", _("Bulk (copied before compute)")
    STREAMED = "streamed", _("Streamed (read while computing)")
