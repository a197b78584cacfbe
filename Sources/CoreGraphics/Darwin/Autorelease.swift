/// Runs `body` inside an autorelease pool and returns what it returns. Swift on Linux has no
/// autorelease pools (objects are released when their last reference goes), so the block simply runs.
public func autoreleasepool<Result>(invoking body: () throws -> Result) rethrows -> Result {
    try body()
}
