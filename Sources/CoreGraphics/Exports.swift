// Core Graphics' geometry on Linux: Foundation already defines `CGFloat`, `CGPoint`, `CGSize`
// and `CGRect`; this module adds what AVFoundation's API is typed with besides them.
@_exported import Foundation
