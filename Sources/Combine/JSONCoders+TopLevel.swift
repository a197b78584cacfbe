import Foundation
import OpenCombine

extension JSONEncoder: @retroactive TopLevelEncoder {}

extension JSONDecoder: @retroactive TopLevelDecoder {}

extension PropertyListEncoder: @retroactive TopLevelEncoder {}

extension PropertyListDecoder: @retroactive TopLevelDecoder {}
