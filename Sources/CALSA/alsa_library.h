// ALSA's functions, called through pointers found when ALSA is first asked for devices or opens
// one, so a process that records no sound does not load libasound at every start. CALSA.c
// includes this after ALSA's header and calls it by its own names; the names below turn those
// calls into calls through pointers.
#ifndef CALSA_LIBRARY_H
#define CALSA_LIBRARY_H

#include <alsa/asoundlib.h>

/// Every ALSA function CALSA.c calls.
#define CALSA_FUNCTIONS(F) \
    F(snd_card_next) \
    F(snd_ctl_card_info) \
    F(snd_ctl_card_info_get_id) \
    F(snd_ctl_card_info_get_name) \
    F(snd_ctl_card_info_sizeof) \
    F(snd_ctl_close) \
    F(snd_ctl_open) \
    F(snd_ctl_pcm_info) \
    F(snd_ctl_pcm_next_device) \
    F(snd_lib_error_set_handler) \
    F(snd_pcm_close) \
    F(snd_pcm_delay) \
    F(snd_pcm_drop) \
    F(snd_pcm_hw_params) \
    F(snd_pcm_hw_params_any) \
    F(snd_pcm_hw_params_current) \
    F(snd_pcm_hw_params_get_channels) \
    F(snd_pcm_hw_params_set_access) \
    F(snd_pcm_hw_params_set_buffer_size_near) \
    F(snd_pcm_hw_params_set_channels_near) \
    F(snd_pcm_hw_params_set_format) \
    F(snd_pcm_hw_params_set_period_size_near) \
    F(snd_pcm_hw_params_set_rate_near) \
    F(snd_pcm_hw_params_sizeof) \
    F(snd_pcm_info_get_name) \
    F(snd_pcm_info_set_device) \
    F(snd_pcm_info_set_stream) \
    F(snd_pcm_info_set_subdevice) \
    F(snd_pcm_info_sizeof) \
    F(snd_pcm_open) \
    F(snd_pcm_prepare) \
    F(snd_pcm_readi) \
    F(snd_pcm_start) \
    F(snd_strerror)

/// ALSA's functions, found by `calsa_load`.
struct calsa_functions {
#define CALSA_POINTER(name) __typeof__(name) *name;
    CALSA_FUNCTIONS(CALSA_POINTER)
#undef CALSA_POINTER
};
extern struct calsa_functions calsa_library;

/// Loads libasound once, from any thread; NULL when every function was found, otherwise why not.
const char *calsa_load(void);

#ifndef CALSA_LOADING
#define snd_card_next calsa_library.snd_card_next
#define snd_ctl_card_info calsa_library.snd_ctl_card_info
#define snd_ctl_card_info_get_id calsa_library.snd_ctl_card_info_get_id
#define snd_ctl_card_info_get_name calsa_library.snd_ctl_card_info_get_name
#define snd_ctl_card_info_sizeof calsa_library.snd_ctl_card_info_sizeof
#define snd_ctl_close calsa_library.snd_ctl_close
#define snd_ctl_open calsa_library.snd_ctl_open
#define snd_ctl_pcm_info calsa_library.snd_ctl_pcm_info
#define snd_ctl_pcm_next_device calsa_library.snd_ctl_pcm_next_device
#define snd_lib_error_set_handler calsa_library.snd_lib_error_set_handler
#define snd_pcm_close calsa_library.snd_pcm_close
#define snd_pcm_delay calsa_library.snd_pcm_delay
#define snd_pcm_drop calsa_library.snd_pcm_drop
#define snd_pcm_hw_params calsa_library.snd_pcm_hw_params
#define snd_pcm_hw_params_any calsa_library.snd_pcm_hw_params_any
#define snd_pcm_hw_params_current calsa_library.snd_pcm_hw_params_current
#define snd_pcm_hw_params_get_channels calsa_library.snd_pcm_hw_params_get_channels
#define snd_pcm_hw_params_set_access calsa_library.snd_pcm_hw_params_set_access
#define snd_pcm_hw_params_set_buffer_size_near calsa_library.snd_pcm_hw_params_set_buffer_size_near
#define snd_pcm_hw_params_set_channels_near calsa_library.snd_pcm_hw_params_set_channels_near
#define snd_pcm_hw_params_set_format calsa_library.snd_pcm_hw_params_set_format
#define snd_pcm_hw_params_set_period_size_near calsa_library.snd_pcm_hw_params_set_period_size_near
#define snd_pcm_hw_params_set_rate_near calsa_library.snd_pcm_hw_params_set_rate_near
#define snd_pcm_hw_params_sizeof calsa_library.snd_pcm_hw_params_sizeof
#define snd_pcm_info_get_name calsa_library.snd_pcm_info_get_name
#define snd_pcm_info_set_device calsa_library.snd_pcm_info_set_device
#define snd_pcm_info_set_stream calsa_library.snd_pcm_info_set_stream
#define snd_pcm_info_set_subdevice calsa_library.snd_pcm_info_set_subdevice
#define snd_pcm_info_sizeof calsa_library.snd_pcm_info_sizeof
#define snd_pcm_open calsa_library.snd_pcm_open
#define snd_pcm_prepare calsa_library.snd_pcm_prepare
#define snd_pcm_readi calsa_library.snd_pcm_readi
#define snd_pcm_start calsa_library.snd_pcm_start
#define snd_strerror calsa_library.snd_strerror
#endif

#endif
