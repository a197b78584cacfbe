// `import UniformTypeIdentifiers` gives what Apple's gives: Foundation, whose URLs and strings its
// types extend.
@_exported import Foundation
