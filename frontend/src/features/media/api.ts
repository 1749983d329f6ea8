import {
  MEDIA_ROUTES,
  type GenerateScriptBody,
  type GeneratorInfo,
  type ScriptList,
  type ScriptListQuery,
  type ScriptRecord,
} from '@countinghouse/proto';
import { api, apiPath } from '../../app/api';

/** The AI video-script endpoints (admin and manager only; the admin panel session counts as admin). */
export const mediaApi = api.enhanceEndpoints({ addTagTypes: ['VideoScript'] }).injectEndpoints({
  endpoints: (build) => ({
    generateVideoScript: build.mutation<ScriptRecord, GenerateScriptBody>({
      query: (body) => ({ url: apiPath(MEDIA_ROUTES.scripts), method: 'POST', body }),
      invalidatesTags: [{ type: 'VideoScript', id: 'LIST' }],
    }),
    videoScript: build.query<ScriptRecord, string>({
      query: (id) => apiPath(MEDIA_ROUTES.script(id)),
      providesTags: (_result, _error, id) => [{ type: 'VideoScript', id }],
      // A finished script changes the earlier-scripts list (title, length, status).
      async onQueryStarted(_id, { dispatch, queryFulfilled, getCacheEntry }) {
        const before = getCacheEntry().data?.status;
        try {
          const { data } = await queryFulfilled;
          if (before !== data.status && (data.status === 'completed' || data.status === 'failed')) {
            dispatch(mediaApi.util.invalidateTags([{ type: 'VideoScript', id: 'LIST' }]));
          }
        } catch {
          // shown by the tab
        }
      },
    }),
    videoScripts: build.query<ScriptList, Pick<ScriptListQuery, 'page' | 'page_size'>>({
      query: (params) => ({ url: apiPath(MEDIA_ROUTES.scripts), params }),
      providesTags: [{ type: 'VideoScript', id: 'LIST' }],
    }),
    videoScriptGenerator: build.query<GeneratorInfo, void>({
      query: () => apiPath(MEDIA_ROUTES.generator),
    }),
  }),
});

export const { useGenerateVideoScriptMutation, useVideoScriptQuery, useVideoScriptsQuery, useVideoScriptGeneratorQuery } = mediaApi;
