extension AVCapture {
    /// The release this build of avcapture belongs to, as `avcapture --version` prints it: the
    /// newest version CHANGELOG.md lists (scripts/install-check.sh fails when the two differ).
    static let version = "0.19.0"
}
