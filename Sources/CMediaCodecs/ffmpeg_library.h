// FFmpeg's functions, called through pointers found when the first movie is opened or written,
// so a process that never touches a movie does not load FFmpeg's libraries (Debian's bring about
// 130 more with them: some 30 ms at every start). The shims include this after FFmpeg's headers
// and call FFmpeg by its own names; the names below turn those calls into calls through pointers.
// Only exported functions can be listed: FFmpeg's inline ones (avio_tell) are spelled out instead.
#ifndef CMC_FFMPEG_LIBRARY_H
#define CMC_FFMPEG_LIBRARY_H

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/display.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/time.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

/// Every FFmpeg function the shims call.
#define CMC_FFMPEG_FUNCTIONS(F) \
    F(av_audio_fifo_alloc) \
    F(av_audio_fifo_free) \
    F(av_audio_fifo_read) \
    F(av_audio_fifo_size) \
    F(av_audio_fifo_write) \
    F(av_buffer_create) \
    F(av_buffer_pool_get) \
    F(av_buffer_pool_init) \
    F(av_buffer_pool_uninit) \
    F(av_channel_layout_copy) \
    F(av_channel_layout_default) \
    F(av_channel_layout_from_mask) \
    F(av_channel_layout_uninit) \
    F(av_d2q) \
    F(av_dict_copy) \
    F(av_dict_free) \
    F(av_dict_get) \
    F(av_dict_set) \
    F(av_display_matrix_flip) \
    F(av_display_rotation_get) \
    F(av_display_rotation_set) \
    F(av_frame_alloc) \
    F(av_frame_free) \
    F(av_frame_get_buffer) \
    F(av_frame_make_writable) \
    F(av_frame_unref) \
    F(av_free) \
    F(av_freep) \
    F(av_get_bytes_per_sample) \
    F(av_get_pix_fmt) \
    F(av_gettime_relative) \
    F(av_interleaved_write_frame) \
    F(av_log_format_line2) \
    F(av_log_set_callback) \
    F(av_malloc) \
    F(av_mallocz) \
    F(av_new_packet) \
    F(av_opt_set) \
    F(av_opt_set_int) \
    F(av_packet_alloc) \
    F(av_packet_free) \
    F(av_packet_get_side_data) \
    F(av_packet_new_side_data) \
    F(av_packet_ref) \
    F(av_packet_rescale_ts) \
    F(av_packet_unref) \
    F(av_read_frame) \
    F(av_rescale_q) \
    F(av_samples_alloc_array_and_samples) \
    F(av_samples_set_silence) \
    F(av_seek_frame) \
    F(av_stream_get_side_data) \
    F(av_stream_new_side_data) \
    F(av_strerror) \
    F(av_write_frame) \
    F(av_write_trailer) \
    F(avcodec_alloc_context3) \
    F(avcodec_descriptor_get_by_name) \
    F(avcodec_find_decoder) \
    F(avcodec_find_encoder) \
    F(avcodec_find_encoder_by_name) \
    F(avcodec_flush_buffers) \
    F(avcodec_free_context) \
    F(avcodec_get_name) \
    F(avcodec_open2) \
    F(avcodec_parameters_copy) \
    F(avcodec_parameters_from_context) \
    F(avcodec_parameters_to_context) \
    F(avcodec_receive_frame) \
    F(avcodec_receive_packet) \
    F(avcodec_send_frame) \
    F(avcodec_send_packet) \
    F(avformat_alloc_context) \
    F(avformat_alloc_output_context2) \
    F(avformat_close_input) \
    F(avformat_find_stream_info) \
    F(avformat_free_context) \
    F(avformat_index_get_entries_count) \
    F(avformat_index_get_entry) \
    F(avformat_network_init) \
    F(avformat_new_stream) \
    F(avformat_open_input) \
    F(avformat_write_header) \
    F(av_find_input_format) \
    F(avio_alloc_context) \
    F(avio_closep) \
    F(avio_context_free) \
    F(avio_flush) \
    F(avio_open) \
    F(avio_open2) \
    F(avio_seek) \
    F(swr_alloc_set_opts2) \
    F(swr_convert) \
    F(swr_free) \
    F(swr_get_delay) \
    F(swr_get_out_samples) \
    F(swr_set_channel_mapping) \
    F(swr_set_matrix) \
    F(swr_init) \
    F(sws_alloc_context) \
    F(sws_init_context) \
    F(sws_setColorspaceDetails) \
    F(sws_getCoefficients) \
    F(sws_freeContext) \
    F(sws_scale)

/// FFmpeg's functions, found by `cmc_ffmpeg_load`.
struct cmc_ffmpeg_functions {
#define CMC_FFMPEG_POINTER(name) __typeof__(name) *name;
    CMC_FFMPEG_FUNCTIONS(CMC_FFMPEG_POINTER)
#undef CMC_FFMPEG_POINTER
};
extern struct cmc_ffmpeg_functions cmc_ffmpeg;

/// Loads FFmpeg's libraries once, from any thread, and sends their log to `cmc_set_log_handler`'s
/// handler; 0 when every function was found, otherwise AVERROR(ENOSYS) (the reason is then
/// `cmc_media_library_problem()`).
int cmc_ffmpeg_load(void);

/// Sends FFmpeg's log to the handler `cmc_set_log_handler` sets (or nowhere); called once FFmpeg is loaded.
void cmc_ffmpeg_take_log(void);

#ifndef CMC_FFMPEG_LOADING
#define av_audio_fifo_alloc cmc_ffmpeg.av_audio_fifo_alloc
#define av_audio_fifo_free cmc_ffmpeg.av_audio_fifo_free
#define av_audio_fifo_read cmc_ffmpeg.av_audio_fifo_read
#define av_audio_fifo_size cmc_ffmpeg.av_audio_fifo_size
#define av_audio_fifo_write cmc_ffmpeg.av_audio_fifo_write
#define av_buffer_create cmc_ffmpeg.av_buffer_create
#define av_buffer_pool_get cmc_ffmpeg.av_buffer_pool_get
#define av_buffer_pool_init cmc_ffmpeg.av_buffer_pool_init
#define av_buffer_pool_uninit cmc_ffmpeg.av_buffer_pool_uninit
#define av_channel_layout_copy cmc_ffmpeg.av_channel_layout_copy
#define av_channel_layout_default cmc_ffmpeg.av_channel_layout_default
#define av_channel_layout_from_mask cmc_ffmpeg.av_channel_layout_from_mask
#define av_channel_layout_uninit cmc_ffmpeg.av_channel_layout_uninit
#define av_d2q cmc_ffmpeg.av_d2q
#define av_dict_copy cmc_ffmpeg.av_dict_copy
#define av_dict_free cmc_ffmpeg.av_dict_free
#define av_dict_get cmc_ffmpeg.av_dict_get
#define av_dict_set cmc_ffmpeg.av_dict_set
#define av_display_matrix_flip cmc_ffmpeg.av_display_matrix_flip
#define av_display_rotation_get cmc_ffmpeg.av_display_rotation_get
#define av_display_rotation_set cmc_ffmpeg.av_display_rotation_set
#define av_frame_alloc cmc_ffmpeg.av_frame_alloc
#define av_frame_free cmc_ffmpeg.av_frame_free
#define av_frame_get_buffer cmc_ffmpeg.av_frame_get_buffer
#define av_frame_make_writable cmc_ffmpeg.av_frame_make_writable
#define av_frame_unref cmc_ffmpeg.av_frame_unref
#define av_free cmc_ffmpeg.av_free
#define av_freep cmc_ffmpeg.av_freep
#define av_get_bytes_per_sample cmc_ffmpeg.av_get_bytes_per_sample
#define av_gettime_relative cmc_ffmpeg.av_gettime_relative
#define av_interleaved_write_frame cmc_ffmpeg.av_interleaved_write_frame
#define av_log_format_line2 cmc_ffmpeg.av_log_format_line2
#define av_log_set_callback cmc_ffmpeg.av_log_set_callback
#define av_malloc cmc_ffmpeg.av_malloc
#define av_mallocz cmc_ffmpeg.av_mallocz
#define av_new_packet cmc_ffmpeg.av_new_packet
#define av_opt_set cmc_ffmpeg.av_opt_set
#define av_opt_set_int cmc_ffmpeg.av_opt_set_int
#define av_packet_alloc cmc_ffmpeg.av_packet_alloc
#define av_packet_free cmc_ffmpeg.av_packet_free
#define av_packet_get_side_data cmc_ffmpeg.av_packet_get_side_data
#define av_packet_new_side_data cmc_ffmpeg.av_packet_new_side_data
#define av_packet_ref cmc_ffmpeg.av_packet_ref
#define av_packet_rescale_ts cmc_ffmpeg.av_packet_rescale_ts
#define av_packet_unref cmc_ffmpeg.av_packet_unref
#define av_read_frame cmc_ffmpeg.av_read_frame
#define av_rescale_q cmc_ffmpeg.av_rescale_q
#define av_samples_alloc_array_and_samples cmc_ffmpeg.av_samples_alloc_array_and_samples
#define av_samples_set_silence cmc_ffmpeg.av_samples_set_silence
#define av_seek_frame cmc_ffmpeg.av_seek_frame
#define av_stream_get_side_data cmc_ffmpeg.av_stream_get_side_data
#define av_stream_new_side_data cmc_ffmpeg.av_stream_new_side_data
#define av_strerror cmc_ffmpeg.av_strerror
#define av_write_frame cmc_ffmpeg.av_write_frame
#define av_write_trailer cmc_ffmpeg.av_write_trailer
#define avcodec_alloc_context3 cmc_ffmpeg.avcodec_alloc_context3
#define avcodec_descriptor_get_by_name cmc_ffmpeg.avcodec_descriptor_get_by_name
#define avcodec_find_decoder cmc_ffmpeg.avcodec_find_decoder
#define avcodec_find_encoder cmc_ffmpeg.avcodec_find_encoder
#define av_get_pix_fmt cmc_ffmpeg.av_get_pix_fmt
#define avcodec_find_encoder_by_name cmc_ffmpeg.avcodec_find_encoder_by_name
#define avcodec_flush_buffers cmc_ffmpeg.avcodec_flush_buffers
#define avcodec_free_context cmc_ffmpeg.avcodec_free_context
#define avcodec_get_name cmc_ffmpeg.avcodec_get_name
#define avcodec_open2 cmc_ffmpeg.avcodec_open2
#define avcodec_parameters_copy cmc_ffmpeg.avcodec_parameters_copy
#define avcodec_parameters_from_context cmc_ffmpeg.avcodec_parameters_from_context
#define avcodec_parameters_to_context cmc_ffmpeg.avcodec_parameters_to_context
#define avcodec_receive_frame cmc_ffmpeg.avcodec_receive_frame
#define avcodec_receive_packet cmc_ffmpeg.avcodec_receive_packet
#define avcodec_send_frame cmc_ffmpeg.avcodec_send_frame
#define avcodec_send_packet cmc_ffmpeg.avcodec_send_packet
#define avformat_alloc_context cmc_ffmpeg.avformat_alloc_context
#define avformat_alloc_output_context2 cmc_ffmpeg.avformat_alloc_output_context2
#define avformat_close_input cmc_ffmpeg.avformat_close_input
#define avformat_find_stream_info cmc_ffmpeg.avformat_find_stream_info
#define avformat_free_context cmc_ffmpeg.avformat_free_context
#define avformat_index_get_entries_count cmc_ffmpeg.avformat_index_get_entries_count
#define avformat_index_get_entry cmc_ffmpeg.avformat_index_get_entry
#define avformat_network_init cmc_ffmpeg.avformat_network_init
#define avformat_new_stream cmc_ffmpeg.avformat_new_stream
#define avformat_open_input cmc_ffmpeg.avformat_open_input
#define avformat_write_header cmc_ffmpeg.avformat_write_header
#define avio_alloc_context cmc_ffmpeg.avio_alloc_context
#define avio_closep cmc_ffmpeg.avio_closep
#define avio_context_free cmc_ffmpeg.avio_context_free
#define avio_flush cmc_ffmpeg.avio_flush
#define avio_open cmc_ffmpeg.avio_open
#define avio_open2 cmc_ffmpeg.avio_open2
#define avio_seek cmc_ffmpeg.avio_seek
#define swr_alloc_set_opts2 cmc_ffmpeg.swr_alloc_set_opts2
#define swr_convert cmc_ffmpeg.swr_convert
#define swr_free cmc_ffmpeg.swr_free
#define swr_get_delay cmc_ffmpeg.swr_get_delay
#define swr_get_out_samples cmc_ffmpeg.swr_get_out_samples
#define swr_set_channel_mapping cmc_ffmpeg.swr_set_channel_mapping
#define swr_set_matrix cmc_ffmpeg.swr_set_matrix
#define swr_init cmc_ffmpeg.swr_init
#define sws_alloc_context cmc_ffmpeg.sws_alloc_context
#define sws_init_context cmc_ffmpeg.sws_init_context
#define sws_setColorspaceDetails cmc_ffmpeg.sws_setColorspaceDetails
#define sws_getCoefficients cmc_ffmpeg.sws_getCoefficients
#define sws_freeContext cmc_ffmpeg.sws_freeContext
#define sws_scale cmc_ffmpeg.sws_scale
#define av_find_input_format cmc_ffmpeg.av_find_input_format
#endif

#endif
