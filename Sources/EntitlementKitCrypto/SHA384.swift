/// SHA-384 (FIPS 180-4 §6.5): SHA-512's compression from other initial words, its first six words as the
/// digest. The certificates of Apple's chain are signed with ECDSA over SHA-384.
package enum SHA384 {
    /// The 48-byte digest of `bytes`.
    package static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        SHA512.digest(of: bytes, initialState: initialState, outputWords: 6)
    }

    private static let initialState: [UInt64] = [
        0xcbbb_9d5d_c105_9ed8, 0x629a_292a_367c_d507, 0x9159_015a_3070_dd17, 0x152f_ecd8_f70e_5939,
        0x6733_2667_ffc0_0b31, 0x8eb4_4a87_6858_1511, 0xdb0c_2e0d_64f9_8fa7, 0x47b5_481d_befa_4fa4,
    ]
}
