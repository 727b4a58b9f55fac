internal import X11Interop

/// Downscaling for thumbnails: area averaging (a box filter), in plain Swift.
///
/// Each output pixel is the average of the source area it covers, partial pixels weighted by the
/// fraction covered, so fine detail (text in a screenshot, a 1-pixel grid) turns into its
/// average colour instead of a moiré. Colour is weighted by alpha, so a transparent pixel's
/// colour never bleeds into its neighbours (a red shape on a transparent background does not
/// get a dark fringe). Memory stays small whatever the source size: one row of horizontal sums
/// and the output's accumulators; every source row is read once.
///
/// Why here and not in the X server: shrinking a 1600 × 1200 pattern (1-pixel dots, 40 % dark) to
/// 77 × 58 under Xvfb, RENDER's `fast`, `good`, `best` and `bilinear` filters all left a moiré
/// (standard deviation 77 grey levels over an area that should be flat, pixels from 0 to 255),
/// since pixman samples 2 × 2 pixels whatever the factor. Its `convolution` filter with a 21 × 21
/// box kernel was as good as this (1.5 against 1.3) but needs the whole decoded image uploaded
/// to the server and held there (7.7 MB for that test, 33 MB for a 4K screenshot, 256 MB at the
/// decoding limit). This filter takes 10 ms for 1920 × 1080, 36 ms for 3840 × 2160 and 0.28 s
/// for 8000 × 8000 in a release build, and RENDER only composites the small result.
enum ImageScaling {
    /// `image` resized to `size`, which is no larger than the image in either direction.
    static func boxFiltered(_ image: RGBAImage, to size: Size) -> RGBAImage {
        let (sourceWidth, sourceHeight) = (image.width, image.height)
        let (width, height) = (size.width, size.height)
        precondition(width > 0 && height > 0 && width <= sourceWidth && height <= sourceHeight, "only shrinks")
        if width == sourceWidth && height == sourceHeight { return image }
        let columns = Self.spans(from: sourceWidth, to: width)
        let rows = Self.spans(from: sourceHeight, to: height)
        // Per output pixel: Σ alpha·w, Σ red·alpha·w, Σ green·alpha·w, Σ blue·alpha·w.
        var sums = [Int](repeating: 0, count: width * height * 4)
        var rowSums = [Int](repeating: 0, count: width * 4)
        let pixels = image.pixels.span
        var outputRow = 0
        for sourceRow in 0..<sourceHeight {
            // Horizontal pass over one source row.
            for column in 0..<width {
                let span = columns[column]
                var (alpha, red, green, blue) = (0, 0, 0, 0)
                for (offset, weight) in span.weights.enumerated() {
                    let base = (sourceRow * sourceWidth + span.first + offset) * 4
                    let weightedAlpha = Int(pixels[base + 3]) * weight
                    alpha += weightedAlpha
                    red += Int(pixels[base]) * weightedAlpha
                    green += Int(pixels[base + 1]) * weightedAlpha
                    blue += Int(pixels[base + 2]) * weightedAlpha
                }
                rowSums[column * 4] = alpha
                rowSums[column * 4 + 1] = red
                rowSums[column * 4 + 2] = green
                rowSums[column * 4 + 3] = blue
            }
            // Vertical pass: a source row falls into at most two output rows when shrinking.
            while outputRow < height, rows[outputRow].first + rows[outputRow].weights.count <= sourceRow {
                outputRow += 1
            }
            var target = outputRow
            while target < height, rows[target].first <= sourceRow {
                let weight = rows[target].weights[sourceRow - rows[target].first]
                let base = target * width * 4
                for index in 0..<(width * 4) { sums[base + index] += rowSums[index] * weight }
                target += 1
            }
        }
        let total = sourceWidth * sourceHeight  // Σ of the weights of each output pixel
        var output = [UInt8](repeating: 0, count: width * height * 4)
        for pixel in 0..<(width * height) {
            let alpha = sums[pixel * 4]
            guard alpha > 0 else { continue }  // fully transparent: colour is meaningless, keep 0
            output[pixel * 4] = UInt8((sums[pixel * 4 + 1] + alpha / 2) / alpha)
            output[pixel * 4 + 1] = UInt8((sums[pixel * 4 + 2] + alpha / 2) / alpha)
            output[pixel * 4 + 2] = UInt8((sums[pixel * 4 + 3] + alpha / 2) / alpha)
            output[pixel * 4 + 3] = UInt8((alpha + total / 2) / total)
        }
        return RGBAImage(width: width, height: height, pixels: output)
    }

    /// Which source pixels one output pixel covers, and by how much.
    struct Span: Hashable, Sendable {
        /// The first source pixel.
        var first: Int
        /// The overlap with each source pixel from `first` on, in units where a source pixel is
        /// `outputCount` wide and an output pixel `sourceCount` wide (so they are whole numbers
        /// and sum to `sourceCount`).
        var weights: [Int]
    }

    /// The spans of `outputCount` output pixels over `sourceCount` source pixels.
    static func spans(from sourceCount: Int, to outputCount: Int) -> [Span] {
        (0..<outputCount).map { output in
            let start = output * sourceCount
            let end = start + sourceCount
            let first = start / outputCount
            let last = (end - 1) / outputCount
            let weights = (first...last).map { source in
                min((source + 1) * outputCount, end) - max(source * outputCount, start)
            }
            return Span(first: first, weights: weights)
        }
    }
}
