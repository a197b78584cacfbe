// libheif's functions, called through pointers found when the first HEIC photo is encoded or read, so a
// process that takes no HEIC photo does not load libheif and the HEVC, AV1 and H.265 libraries it
// brings (some 6 ms at every start). heic.c includes this after libheif's header and calls it by
// its own names; the names below turn those calls into calls through pointers.
#ifndef CPC_HEIF_LIBRARY_H
#define CPC_HEIF_LIBRARY_H

#include <libheif/heif.h>

/// Every libheif function heic.c calls.
#define CPC_HEIF_FUNCTIONS(F) \
    F(heif_context_add_exif_metadata) \
    F(heif_context_get_primary_image_handle) \
    F(heif_context_read_from_memory_without_copy) \
    F(heif_decode_image) \
    F(heif_image_get_plane_readonly) \
    F(heif_image_handle_get_height) \
    F(heif_image_handle_get_width) \
    F(heif_image_handle_has_alpha_channel) \
    F(heif_image_handle_get_list_of_metadata_block_IDs) \
    F(heif_image_handle_get_metadata) \
    F(heif_image_handle_get_metadata_size) \
    F(heif_context_alloc) \
    F(heif_context_encode_image) \
    F(heif_context_encode_thumbnail) \
    F(heif_context_free) \
    F(heif_context_get_encoder_for_format) \
    F(heif_context_write) \
    F(heif_encoder_release) \
    F(heif_encoder_set_lossy_quality) \
    F(heif_encoder_set_parameter_string) \
    F(heif_have_encoder_for_format) \
    F(heif_image_add_plane) \
    F(heif_image_create) \
    F(heif_image_get_plane) \
    F(heif_image_handle_release) \
    F(heif_image_release) \
    F(heif_image_set_nclx_color_profile) \
    F(heif_nclx_color_profile_alloc) \
    F(heif_nclx_color_profile_free) \
    F(heif_image_handle_has_depth_image) \
    F(heif_image_handle_get_list_of_depth_image_IDs) \
    F(heif_image_handle_get_depth_image_handle) \
    F(heif_image_handle_get_depth_image_representation_info) \
    F(heif_depth_representation_info_free) \
    F(heif_image_get_bits_per_pixel_range)

/// libheif's functions, found by `cpc_heif_load`.
struct cpc_heif_functions {
#define CPC_HEIF_POINTER(name) __typeof__(name) *name;
    CPC_HEIF_FUNCTIONS(CPC_HEIF_POINTER)
#undef CPC_HEIF_POINTER
};
extern struct cpc_heif_functions cpc_heif;

/// Loads libheif once, from any thread; NULL when every function was found, otherwise why not.
const char *cpc_heif_load(void);

#ifndef CPC_HEIF_LOADING
#define heif_context_add_exif_metadata cpc_heif.heif_context_add_exif_metadata
#define heif_context_get_primary_image_handle cpc_heif.heif_context_get_primary_image_handle
#define heif_context_read_from_memory_without_copy cpc_heif.heif_context_read_from_memory_without_copy
#define heif_decode_image cpc_heif.heif_decode_image
#define heif_image_get_plane_readonly cpc_heif.heif_image_get_plane_readonly
#define heif_image_handle_get_height cpc_heif.heif_image_handle_get_height
#define heif_image_handle_get_width cpc_heif.heif_image_handle_get_width
#define heif_image_handle_has_alpha_channel cpc_heif.heif_image_handle_has_alpha_channel
#define heif_image_handle_get_list_of_metadata_block_IDs cpc_heif.heif_image_handle_get_list_of_metadata_block_IDs
#define heif_image_handle_get_metadata cpc_heif.heif_image_handle_get_metadata
#define heif_image_handle_get_metadata_size cpc_heif.heif_image_handle_get_metadata_size
#define heif_context_alloc cpc_heif.heif_context_alloc
#define heif_context_encode_image cpc_heif.heif_context_encode_image
#define heif_context_encode_thumbnail cpc_heif.heif_context_encode_thumbnail
#define heif_context_free cpc_heif.heif_context_free
#define heif_context_get_encoder_for_format cpc_heif.heif_context_get_encoder_for_format
#define heif_context_write cpc_heif.heif_context_write
#define heif_encoder_release cpc_heif.heif_encoder_release
#define heif_encoder_set_lossy_quality cpc_heif.heif_encoder_set_lossy_quality
#define heif_encoder_set_parameter_string cpc_heif.heif_encoder_set_parameter_string
#define heif_have_encoder_for_format cpc_heif.heif_have_encoder_for_format
#define heif_image_add_plane cpc_heif.heif_image_add_plane
#define heif_image_create cpc_heif.heif_image_create
#define heif_image_get_plane cpc_heif.heif_image_get_plane
#define heif_image_handle_release cpc_heif.heif_image_handle_release
#define heif_image_release cpc_heif.heif_image_release
#define heif_image_set_nclx_color_profile cpc_heif.heif_image_set_nclx_color_profile
#define heif_image_handle_has_depth_image cpc_heif.heif_image_handle_has_depth_image
#define heif_image_handle_get_list_of_depth_image_IDs cpc_heif.heif_image_handle_get_list_of_depth_image_IDs
#define heif_image_handle_get_depth_image_handle cpc_heif.heif_image_handle_get_depth_image_handle
#define heif_image_handle_get_depth_image_representation_info cpc_heif.heif_image_handle_get_depth_image_representation_info
#define heif_depth_representation_info_free cpc_heif.heif_depth_representation_info_free
#define heif_image_get_bits_per_pixel_range cpc_heif.heif_image_get_bits_per_pixel_range
#define heif_nclx_color_profile_alloc cpc_heif.heif_nclx_color_profile_alloc
#define heif_nclx_color_profile_free cpc_heif.heif_nclx_color_profile_free
#endif

#endif
