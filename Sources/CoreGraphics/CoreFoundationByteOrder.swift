// Core Foundation's byte-order functions, which code reading and writing network and file formats
// (length-prefixed NAL units, box headers) calls.

/// Swaps the bytes of a 16-bit integer.
public func CFSwapInt16(_ arg: UInt16) -> UInt16 { arg.byteSwapped }
/// Swaps the bytes of a 32-bit integer.
public func CFSwapInt32(_ arg: UInt32) -> UInt32 { arg.byteSwapped }
/// Swaps the bytes of a 64-bit integer.
public func CFSwapInt64(_ arg: UInt64) -> UInt64 { arg.byteSwapped }
/// Converts a big-endian 16-bit integer to the host's byte order.
public func CFSwapInt16BigToHost(_ arg: UInt16) -> UInt16 { UInt16(bigEndian: arg) }
/// Converts a big-endian 32-bit integer to the host's byte order.
public func CFSwapInt32BigToHost(_ arg: UInt32) -> UInt32 { UInt32(bigEndian: arg) }
/// Converts a big-endian 64-bit integer to the host's byte order.
public func CFSwapInt64BigToHost(_ arg: UInt64) -> UInt64 { UInt64(bigEndian: arg) }
/// Converts a 16-bit integer in the host's byte order to big-endian.
public func CFSwapInt16HostToBig(_ arg: UInt16) -> UInt16 { arg.bigEndian }
/// Converts a 32-bit integer in the host's byte order to big-endian.
public func CFSwapInt32HostToBig(_ arg: UInt32) -> UInt32 { arg.bigEndian }
/// Converts a 64-bit integer in the host's byte order to big-endian.
public func CFSwapInt64HostToBig(_ arg: UInt64) -> UInt64 { arg.bigEndian }
/// Converts a little-endian 16-bit integer to the host's byte order.
public func CFSwapInt16LittleToHost(_ arg: UInt16) -> UInt16 { UInt16(littleEndian: arg) }
/// Converts a little-endian 32-bit integer to the host's byte order.
public func CFSwapInt32LittleToHost(_ arg: UInt32) -> UInt32 { UInt32(littleEndian: arg) }
/// Converts a little-endian 64-bit integer to the host's byte order.
public func CFSwapInt64LittleToHost(_ arg: UInt64) -> UInt64 { UInt64(littleEndian: arg) }
/// Converts a 16-bit integer in the host's byte order to little-endian.
public func CFSwapInt16HostToLittle(_ arg: UInt16) -> UInt16 { arg.littleEndian }
/// Converts a 32-bit integer in the host's byte order to little-endian.
public func CFSwapInt32HostToLittle(_ arg: UInt32) -> UInt32 { arg.littleEndian }
/// Converts a 64-bit integer in the host's byte order to little-endian.
public func CFSwapInt64HostToLittle(_ arg: UInt64) -> UInt64 { arg.littleEndian }
