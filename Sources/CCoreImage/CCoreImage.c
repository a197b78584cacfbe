// The module map's C target needs a source; Core Image's code is Swift.
