#!/usr/bin/env python3
"""Checks that the Apple-named modules show no underscored plumbing: every public declaration whose
name begins with `_`, outside an `@_spi` group, must be one listed here with the reason it has to
be public. Reads the API dumps `swift-api-digester -dump-sdk` made (scripts/docs.sh makes them).

    python3 scripts/underscored-names.py DUMP.json [DUMP.json ...]
"""
import json
import pathlib
import sys

# Underscored names that stay public, and why. Anything else underscored is the package's own
# plumbing: give it `package` access, or `@_spi(Plumbing)` when a public protocol requires it.
KEPT = {
    # Apple's own spellings.
    "AVFoundation AVCapturePhotoSettings/__availablePreviewPhotoPixelFormatTypes": "Apple's refined-for-Swift name",
    "VideoToolbox VTDecodeFrameFlags/_EnableAsynchronousDecompression": "Apple's name for the flag",
    "VideoToolbox VTDecodeFrameFlags/_DoNotOutputFrame": "Apple's name for the flag",
    "VideoToolbox VTDecodeFrameFlags/_1xRealTimePlayback": "Apple's name for the flag",
    "VideoToolbox VTDecodeFrameFlags/_EnableTemporalProcessing": "Apple's name for the flag",
    # Protocols that carry Apple's API to the classes that have it.
    "AVFoundation _KeyValueObservable": "gives each observable class observe(_:options:changeHandler:), as Foundation's _KeyValueCodingAndObserving does on Apple's platforms",
    "AVFoundation _AssetTrackList": "gives assets tracks of their own class, as Apple's Objective-C declarations do",
    "Combine _DateSchedulerTimeType": "RunLoop's and OperationQueue's SchedulerTimeType, one definition for both",
    # The standard library's bridging, whose requirements are public by nature.
    "CoreVideo _StringConstantBridging": "bridges string constants to NSString as Apple's do",
    "CoreVideo _StringConstantBridging/_bridgeToObjectiveC": "requirement of the standard library's _ObjectiveCBridgeable",
    "CoreVideo _StringConstantBridging/_forceBridgeFromObjectiveC": "requirement of the standard library's _ObjectiveCBridgeable",
    "CoreVideo _StringConstantBridging/_conditionallyBridgeFromObjectiveC": "requirement of the standard library's _ObjectiveCBridgeable",
    "CoreVideo _StringConstantBridging/_unconditionallyBridgeFromObjectiveC": "requirement of the standard library's _ObjectiveCBridgeable",
    "CoreGraphics NSString/_toCustomAnyHashable": "requirement of the standard library's _HasCustomAnyHashableRepresentation",
}


def underscored(node, module, path, found):
    """Collects the public, non-SPI declarations of `module` under `node` whose names begin with `_`."""
    name = node.get("name", "")
    if (
        node.get("kind") != "Import"
        and name.startswith("_")
        and not name.startswith("__derived")
        and not node.get("spi_group_names")
        and not node.get("isInternal")  # package access
        and node.get("moduleName") == module
    ):
        found.append(f"{module} {'/'.join(path + [name])}")
    inner = path + [name] if node.get("kind") == "TypeDecl" else path
    for child in node.get("children", []):
        if child.get("kind", "").startswith("Type") and child.get("kind") != "TypeDecl":
            continue  # a type reference, not a declaration
        underscored(child, module, inner, found)


def main(dumps):
    found = []
    for dump in dumps:
        module = pathlib.Path(dump).stem
        underscored(json.loads(pathlib.Path(dump).read_text())["ABIRoot"], module, [], found)
    unexpected = sorted(set(found) - set(KEPT))
    for name in unexpected:
        print(f"underscored-names.py: {name} is public plumbing: make it package or @_spi(Plumbing)", file=sys.stderr)
    if unexpected:
        return 1
    print(f"underscored-names.py: {len(dumps)} modules, {len(set(found))} underscored public names, each listed with its reason")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
