"""Backends that run a trained model besides PyTorch: ONNX Runtime on the CPU
(:mod:`~hf_anon.model.backends.onnx`: export, fusion, int8 quantization, cache)."""
