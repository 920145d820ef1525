/// \file
/// Signal processing computes (ONNX opset 17): the Hann, Hamming and Blackman
/// windows, DFT and STFT. A transform is a reduction over the samples per
/// output bin (the direct O(n^2) sum: the transform lengths of inference
/// graphs are short), tagged reduce, parallel over the bins under the
/// default schedule; complex values are a last axis of 2 (real, imaginary).
#pragma once

#include "te/Tensor.h"

#include <cstdint>
#include <string>

namespace tessel::topi::signal {

enum class WindowKind { Hann, Hamming, Blackman };

/// The window of `size` samples in `dtype`, periodic (denominator size) or
/// symmetric (size - 1).
te::Tensor window(WindowKind kind, int64_t size, bool periodic, DataType dtype, const std::string& name = "window");

/// The discrete Fourier transform of x [..., n, 1 or 2] along `axis` (not the
/// last), over `length` samples (zero-padded or cut; <= 0: n); `inverse`
/// conjugates and divides by the length; `onesided` keeps bins 0 .. length/2.
te::Tensor dft(const te::Tensor& x, int64_t length, int64_t axis = 1, bool inverse = false, bool onesided = false,
               const std::string& name = "dft");

/// The short-time transform of signal [batch, n, 1 or 2]: frames of
/// `frameLength` samples every `frameStep`, each times `window` (optional:
/// ones), transformed: [batch, frames, bins, 2].
te::Tensor stft(const te::Tensor& signal, int64_t frameStep, const te::Tensor& window, int64_t frameLength,
                bool onesided = true, const std::string& name = "stft");

} // namespace tessel::topi::signal
