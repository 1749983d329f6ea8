import {
  SETTINGS_ROUTES,
  type PracticeSettings,
  type SettingChangeList,
  type SettingChangesQuery,
  type SettingsPatch,
  type SettingsPatchReply,
} from '@countinghouse/proto';
import { api, apiPath } from '../../app/api';

/** Company Settings (admin panel session): the settings, their change history, and saving a change. */
export const settingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    practiceSettings: build.query<PracticeSettings, void>({
      query: () => apiPath(SETTINGS_ROUTES.settings),
      providesTags: [{ type: 'Settings', id: 'CURRENT' }],
    }),
    settingChanges: build.query<SettingChangeList, SettingChangesQuery>({
      query: (params) => ({ url: apiPath(SETTINGS_ROUTES.changes), params }),
      providesTags: [{ type: 'Settings', id: 'CHANGES' }],
    }),
    updateSettings: build.mutation<SettingsPatchReply, SettingsPatch>({
      query: (body) => ({ url: apiPath(SETTINGS_ROUTES.settings), method: 'PATCH', body }),
      // The public config is the gateway's copy: it follows by event, and the footer asks again.
      invalidatesTags: (reply) => (reply && reply.changed.length > 0 ? ['Settings', 'PublicConfig'] : []),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(settingsApi.util.upsertQueryData('practiceSettings', undefined, data.settings));
        } catch {
          // the page shows the error
        }
      },
    }),
  }),
});

export const { usePracticeSettingsQuery, useSettingChangesQuery, useUpdateSettingsMutation } = settingsApi;
