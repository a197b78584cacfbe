import Foundation

/// How colour temperature and tint relate to white balance gains: the gains that make a grey
/// card lit by an illuminant of that temperature grey again. Daylight (5500 K, no tint) needs
/// no correction; warmer light needs more blue, cooler light more red; tint moves green.
package enum WhiteBalanceModel {
    /// The daylight temperature at which the gains are neutral, in kelvin.
    static let neutralKelvin = 5500.0

    /// The gains, each from 1 to `maxGain`, that neutralise light of `kelvin` and `tint`.
    package static func gains(kelvin: Double, tint: Double, maxGain: Float) -> (red: Float, green: Float, blue: Float) {
        let ratio = max(1000, kelvin) / neutralKelvin
        var red = pow(ratio, 0.6), blue = pow(ratio, -0.8), green = pow(2, tint / 100)
        let smallest = min(red, green, blue)
        (red, green, blue) = (red / smallest, green / smallest, blue / smallest)
        return (min(Float(red), maxGain), min(Float(green), maxGain), min(Float(blue), maxGain))
    }

    /// The temperature in kelvin and the tint of the light `gains` neutralise.
    package static func temperature(red: Float, green: Float, blue: Float) -> (kelvin: Double, tint: Double) {
        let ratio = pow(Double(red) / Double(blue), 1 / 1.4)
        let tint = 100 * log2(Double(green) / Double(red) * pow(ratio, 0.6))
        return (neutralKelvin * ratio, tint)
    }
}
